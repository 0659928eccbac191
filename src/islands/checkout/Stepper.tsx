import { percent } from '~/domain/percent.ts';
import { CHECKOUT_STEPPER_TEXT } from '~/i18n/checkout.ts';

/** The checkout's progress bar: 'Paso n de 4' and the four steps; completed ones are clickable. */
export const STEPS = CHECKOUT_STEPPER_TEXT.steps;
export type StepKey = 'summary' | 'shipping' | 'payment' | 'confirmation';
export const STEP_KEYS: StepKey[] = ['summary', 'shipping', 'payment', 'confirmation'];

interface Props {
  current: StepKey;
  /** Called for a completed step; without it the steps are not clickable. */
  onSelect?: ((step: StepKey) => void) | undefined;
}

/** The checkout progress bar. */
export default function Stepper({ current, onSelect }: Props) {
  const index = STEP_KEYS.indexOf(current);
  return (
    <nav className="stepper" aria-label={CHECKOUT_STEPPER_TEXT.label}>
      <p className="stepper-count">{CHECKOUT_STEPPER_TEXT.step(index + 1, STEPS.length)}</p>
      <div className="stepper-bar" aria-hidden="true">
        <span style={{ width: `${percent(index + 1, STEPS.length)}%` }} />
      </div>
      <ol>
        {STEPS.map((label, i) => {
          const state = i < index ? 'done' : i === index ? 'current' : 'todo';
          const key = STEP_KEYS[i]!;
          return (
            <li key={label} className={`step step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              {state === 'done' && onSelect ? (
                <button type="button" className="step-link" onClick={() => onSelect(key)}>
                  <span className="step-num">{i + 1}</span> {label}
                  <span className="visually-hidden">{CHECKOUT_STEPPER_TEXT.completed}</span>
                </button>
              ) : (
                <span className="step-label">
                  <span className="step-num">{i + 1}</span> {label}
                  {state === 'done' && <span className="visually-hidden">{CHECKOUT_STEPPER_TEXT.completed}</span>}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
