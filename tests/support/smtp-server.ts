/**
 * A real SMTP server in the test's process (smtp-server on 127.0.0.1, no TLS, any login) that
 * keeps every message it accepts, parsed, with its envelope recipients. `refuseNext(n)` makes the
 * next n RCPT TO commands fail with a temporary 451, as a busy mailbox answers.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpServer {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Every message accepted so far, in order. */
  received: Array<{ rcpt: string[]; mail: ParsedMail }>;
  /** Refuses the next `count` recipients with 451. */
  refuseNext(count: number): void;
  /** Forgets the messages and the pending refusals. */
  reset(): void;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: TestSmtpServer['received'] = [];
  let refusals = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals -= 1;
        callback(Object.assign(new Error('Buzón ocupado, intenta más tarde'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ rcpt: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refuseNext(count) {
      refusals = count;
    },
    reset() {
      received.length = 0;
      refusals = 0;
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
