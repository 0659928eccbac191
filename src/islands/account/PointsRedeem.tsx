import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { getPointsRate, newRedemptionRequest, redeemPoints } from '~/data/points.ts';
import { formatCount } from '~/domain/counts.ts';
import { formatCentavos } from '~/domain/money.ts';
import { creditForPoints, redeemablePoints, redemptionProblem, type PointsRate, type RedemptionProblem } from '~/domain/points.ts';
import type { FormResult } from '~/domain/validation.ts';
import { POINTS_REDEEM_TEXT } from '~/i18n/points.ts';
import { $summary, reloadSummary } from '~/stores/account.ts';
import { reloadStoreCredit } from '~/stores/store-credit.ts';
import { TextField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';
import { useNote } from '../ui/useNote.ts';

/** How long the note of a redemption stays. */
const DONE_NOTE_MS = 8000;

function problemText(problem: RedemptionProblem, rate: PointsRate): string {
  if (problem === 'not_whole_blocks') return POINTS_REDEEM_TEXT.notWholeBlocks(formatCount(rate.pointsPerBlock));
  if (problem === 'below_minimum') return POINTS_REDEEM_TEXT.belowMinimum(formatCount(rate.minPoints));
  return POINTS_REDEEM_TEXT.insufficient;
}

/** What was typed as a whole number of points; NaN when it is not one. */
function typedPoints(text: string): number {
  const clean = text.replace(/[\s,]/g, '');
  return /^\d{1,9}$/.test(clean) ? Number(clean) : Number.NaN;
}

/**
 * 'Canjear puntos': the balance of points, the shop's rate ('100 puntos = $10.00'), what the
 * typed points are worth, and the conversion. The database converts (redeem_points); each intent
 * carries one request id, so a double click or a retry converts once. The summary's points and the
 * saldo a favor are read again when it is done (and live, through the profile panel).
 */
export default function PointsRedeem({ userId }: { userId: string }) {
  const summary = useStore($summary);
  const [rate, setRate] = useState<PointsRate | null | 'failed'>(null);
  // null: nothing typed yet, the minimum is offered.
  const [typed, setTyped] = useState<string | null>(null);
  const request = useRef<string>('');
  const [done, showDone] = useNote(DONE_NOTE_MS);

  useEffect(() => {
    let live = true;
    void getPointsRate().then((answer) => {
      if (live) setRate(answer.data ?? 'failed');
    });
    return () => {
      live = false;
    };
  }, []);

  const balance = summary.value?.points ?? null;
  const ready = rate !== null && rate !== 'failed' ? rate : null;
  const value = typed ?? (ready ? String(ready.minPoints) : '');
  const points = typedPoints(value);

  const form = useForm<number>({
    validate: (): FormResult<number> => {
      if (!ready || balance === null) return { ok: false, fieldErrors: {}, formError: POINTS_REDEEM_TEXT.unavailable };
      const problem = redemptionProblem(points, balance, ready);
      return problem ? { ok: false, fieldErrors: { points: problemText(problem, ready) }, formError: '' } : { ok: true, data: points };
    },
    send: async (amount) => {
      if (!ready) return POINTS_REDEEM_TEXT.unavailable;
      request.current ||= newRedemptionRequest();
      const answer = await redeemPoints(amount, request.current);
      if (!answer.ok)
        return answer.problem === 'failed' ? POINTS_REDEEM_TEXT.failed : { formError: '', fieldErrors: { points: problemText(answer.problem, ready) } };
      // Done: the next conversion is a new intent.
      request.current = '';
      const { redemption } = answer;
      showDone(POINTS_REDEEM_TEXT.done(formatCount(redemption.points), formatCentavos(redemption.credit), formatCount(redemption.pointsBalance)));
      setTyped(null);
      void reloadSummary(userId);
      void reloadStoreCredit(userId);
    },
  });

  const change = (text: string) => {
    // Other points are another intent; a retry of the same points keeps its request id.
    if (text !== value) request.current = '';
    setTyped(text);
    form.setErrors({});
  };

  return (
    <section className="acct-section" aria-labelledby="acct-points-title" data-testid="points-redeem">
      <h3 id="acct-points-title">{POINTS_REDEEM_TEXT.title}</h3>
      <p className="muted">{POINTS_REDEEM_TEXT.intro}</p>
      {rate === null || (balance === null && summary.loading) ? (
        <p role="status">{POINTS_REDEEM_TEXT.loading}</p>
      ) : !ready || balance === null ? (
        <p className="muted">{POINTS_REDEEM_TEXT.unavailable}</p>
      ) : (
        <>
          <p className="acct-points-rate">
            <strong data-testid="points-rate">{POINTS_REDEEM_TEXT.rate(formatCount(ready.pointsPerBlock), formatCentavos(ready.blockValue))}</strong>
          </p>
          <p data-testid="points-balance">{POINTS_REDEEM_TEXT.balance(formatCount(balance))}</p>
          <p className="muted">{POINTS_REDEEM_TEXT.rules(formatCount(ready.minPoints), formatCount(ready.pointsPerBlock))}</p>
          {done && (
            <p className="acct-note acct-note-success" role="status">
              {done}
            </p>
          )}
          {redeemablePoints(balance, ready) === 0 ? (
            <p>{POINTS_REDEEM_TEXT.notEnough(formatCount(Math.max(ready.minPoints - balance, 0)), formatCount(ready.minPoints))}</p>
          ) : (
            <form className="acct-form" onSubmit={form.onSubmit} noValidate aria-label={POINTS_REDEEM_TEXT.title} aria-busy={form.busy}>
              <TextField
                label={POINTS_REDEEM_TEXT.field}
                name="points"
                value={value}
                onChange={change}
                error={form.errors.points}
                inputMode="numeric"
                autoComplete="off"
              />
              <p aria-live="polite" data-testid="points-you-get">
                {POINTS_REDEEM_TEXT.youGet(formatCentavos(creditForPoints(points, ready)))}
              </p>
              <FormActions error={form.formError} busy={form.busy} submitLabel={POINTS_REDEEM_TEXT.submit} busyLabel={POINTS_REDEEM_TEXT.sending} />
            </form>
          )}
        </>
      )}
    </section>
  );
}
