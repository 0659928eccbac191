import { useEffect, useState } from 'react';
import { getPointsRate, savePointsRate, type PointsRateRow, type SaveRateAnswer } from '~/data/points.ts';
import { formatCount } from '~/domain/counts.ts';
import { centavosToPesosInput, formatCentavos, pesosInputToCentavos } from '~/domain/money.ts';
import type { PointsRate } from '~/domain/points.ts';
import { ADMIN_POINTS_RATE_TEXT } from '~/i18n/points.ts';
import { TextField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';
import { useNote } from '../ui/useNote.ts';

/** How long 'Equivalencia guardada.' stays. */
const SAVED_NOTE_MS = 2400;
/** The database's bounds (points_rate_before_update). */
const MAX_POINTS = 1_000_000;
const MAX_BLOCK_CENTAVOS = 10_000_000;

type Fields = Record<'pointsPerBlock' | 'blockValue' | 'minPoints', string>;

const when = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Mexico_City' });

function fieldsOf(rate: PointsRate): Fields {
  return { pointsPerBlock: String(rate.pointsPerBlock), blockValue: centavosToPesosInput(rate.blockValue), minPoints: String(rate.minPoints) };
}

function wholePoints(text: string): number | null {
  const clean = text.trim();
  if (!/^\d{1,7}$/.test(clean)) return null;
  const points = Number(clean);
  return points >= 1 && points <= MAX_POINTS ? points : null;
}

const REFUSALS: Record<Exclude<SaveRateAnswer, { ok: true }>['problem'], { field?: keyof Fields; text: string }> = {
  invalid_points_per_block: { field: 'pointsPerBlock', text: ADMIN_POINTS_RATE_TEXT.invalidPoints },
  invalid_pesos_per_block: { field: 'blockValue', text: ADMIN_POINTS_RATE_TEXT.invalidValue },
  invalid_min_points: { field: 'minPoints', text: ADMIN_POINTS_RATE_TEXT.invalidMinimum },
  forbidden: { text: ADMIN_POINTS_RATE_TEXT.forbidden },
  failed: { text: ADMIN_POINTS_RATE_TEXT.saveFailed },
};

/**
 * The rate of 'Canjear puntos': so many points are worth so much saldo a favor, and the fewest
 * points one redemption takes (whole blocks). The database checks it again, lets only admins change
 * it and records every change with who and when.
 */
export default function PointsRateSettings() {
  const [rate, setRate] = useState<PointsRateRow | null | 'failed'>(null);
  const [fields, setFields] = useState<Fields | null>(null);
  const [savedNote, showSavedNote] = useNote(SAVED_NOTE_MS);

  useEffect(() => {
    void getPointsRate().then((answer) => {
      if (!answer.data) return setRate('failed');
      setRate(answer.data);
      setFields(fieldsOf(answer.data));
    });
  }, []);

  const form = useForm<PointsRate>({
    validate: () => {
      const errors: Record<string, string> = {};
      const pointsPerBlock = wholePoints(fields?.pointsPerBlock ?? '');
      const blockValue = pesosInputToCentavos(fields?.blockValue ?? '');
      const minPoints = wholePoints(fields?.minPoints ?? '');
      if (pointsPerBlock === null) errors.pointsPerBlock = ADMIN_POINTS_RATE_TEXT.invalidPoints;
      if (blockValue === null || blockValue <= 0 || blockValue > MAX_BLOCK_CENTAVOS) errors.blockValue = ADMIN_POINTS_RATE_TEXT.invalidValue;
      if (minPoints === null || (pointsPerBlock !== null && (minPoints < pointsPerBlock || minPoints % pointsPerBlock !== 0))) {
        errors.minPoints = ADMIN_POINTS_RATE_TEXT.invalidMinimum;
      }
      if (pointsPerBlock === null || blockValue === null || minPoints === null || Object.keys(errors).length > 0) {
        return { ok: false, fieldErrors: errors, formError: '' };
      }
      return { ok: true, data: { pointsPerBlock, blockValue, minPoints } };
    },
    send: async (next) => {
      const answer = await savePointsRate(next);
      if (!answer.ok) {
        const refusal = REFUSALS[answer.problem];
        return refusal.field ? { formError: '', fieldErrors: { [refusal.field]: refusal.text } } : refusal.text;
      }
      setRate(answer.rate);
      setFields(fieldsOf(answer.rate));
      showSavedNote(ADMIN_POINTS_RATE_TEXT.saved);
    },
  });

  const field = (name: keyof Fields, label: string, inputMode: 'numeric' | 'decimal') =>
    fields && (
      <TextField
        label={label}
        name={name}
        value={fields[name]}
        inputMode={inputMode}
        autoComplete="off"
        error={form.errors[name]}
        onChange={(v) => setFields((f) => (f ? { ...f, [name]: v } : f))}
      />
    );

  return (
    <section className="adm-points-rate" aria-labelledby="adm-points-rate-title" data-testid="points-rate-settings">
      <h2 id="adm-points-rate-title">{ADMIN_POINTS_RATE_TEXT.title}</h2>
      <p className="muted">{ADMIN_POINTS_RATE_TEXT.intro}</p>
      {rate === null ? (
        <p role="status">{ADMIN_POINTS_RATE_TEXT.loading}</p>
      ) : rate === 'failed' ? (
        <p className="acct-error" role="alert">
          {ADMIN_POINTS_RATE_TEXT.loadFailed}
        </p>
      ) : (
        <>
          <p data-testid="points-rate-current">
            {ADMIN_POINTS_RATE_TEXT.current(formatCount(rate.pointsPerBlock), formatCentavos(rate.blockValue), formatCount(rate.minPoints))}{' '}
            <span className="muted">{ADMIN_POINTS_RATE_TEXT.lastChange(when.format(new Date(rate.updatedAt)))}</span>
          </p>
          {savedNote && (
            <p className="acct-note acct-note-success" role="status">
              {savedNote}
            </p>
          )}
          <form className="acct-form" onSubmit={form.onSubmit} noValidate aria-label={ADMIN_POINTS_RATE_TEXT.title} aria-busy={form.busy}>
            <div className="acct-row">
              {field('pointsPerBlock', ADMIN_POINTS_RATE_TEXT.pointsPerBlock, 'numeric')}
              {field('blockValue', ADMIN_POINTS_RATE_TEXT.blockValue, 'decimal')}
            </div>
            {field('minPoints', ADMIN_POINTS_RATE_TEXT.minPoints, 'numeric')}
            <FormActions
              className="adm-actions"
              error={form.formError}
              busy={form.busy}
              submitLabel={ADMIN_POINTS_RATE_TEXT.save}
              busyLabel={ADMIN_POINTS_RATE_TEXT.saving}
            />
          </form>
        </>
      )}
    </section>
  );
}
