import { useStore } from '@nanostores/react';
import { STORE_CREDIT_MESSAGES, storeCreditSummary } from '~/domain/store-credit.ts';
import { $storeCredit, movementLine, reloadStoreCredit, STORE_CREDIT_TEXTS, type StoreCreditMovement } from '~/stores/store-credit.ts';
import { AsyncState } from '../ui/AsyncState.tsx';

/**
 * The balance line of the profile summary: 'Saldo a favor: $350.00' ($0.00 included), from the
 * same read as the movements below it.
 */
export function StoreCreditSummary() {
  const state = useStore($storeCredit);
  return (
    <AsyncState state={state} loading={<p role="status">{STORE_CREDIT_TEXTS.loading}</p>} fallback={<p className="muted">{STORE_CREDIT_TEXTS.unavailable}</p>}>
      {(credit) => (
        <p className="acct-credit-balance" data-testid="summary-store-credit">
          {storeCreditSummary(credit.balance)}
        </p>
      )}
    </AsyncState>
  );
}

/**
 * 'Movimientos de tu saldo a favor': the newest movements (date, why, the order, the signed
 * amount and the balance after), how cash paid at OXXO comes back, and the empty state.
 */
export default function StoreCreditSection({ userId }: { userId: string }) {
  const state = useStore($storeCredit);
  return (
    <section className="acct-section" aria-labelledby="acct-credit-title" data-testid="store-credit">
      <h3 id="acct-credit-title">{STORE_CREDIT_TEXTS.title}</h3>
      <p className="muted">{STORE_CREDIT_MESSAGES.howReturned}</p>
      <AsyncState
        state={state}
        loading={<p role="status">{STORE_CREDIT_TEXTS.loadingMovements}</p>}
        failed={STORE_CREDIT_TEXTS.loadFailed}
        onRetry={() => void reloadStoreCredit(userId)}
      >
        {(credit) => <MovementList movements={credit.movements} />}
      </AsyncState>
    </section>
  );
}

function MovementList({ movements }: { movements: StoreCreditMovement[] }) {
  if (movements.length === 0) return <p>{STORE_CREDIT_TEXTS.empty}</p>;
  return (
    <ul className="acct-credit-list" aria-labelledby="acct-credit-title">
      {movements.map(movementLine).map((line) => (
        <li key={line.id} className="acct-credit-item" data-testid="store-credit-movement">
          <span className="acct-credit-what">
            <span className="acct-credit-label">{line.label}</span>
            {line.order && <span className="muted"> · Pedido {line.order}</span>}
          </span>
          <span className={`acct-credit-amount acct-credit-${line.direction}`}>{line.amount}</span>
          <time className="muted" dateTime={line.dateTime}>
            {line.date}
          </time>
          <span className="muted acct-credit-after">Saldo: {line.balanceAfter}</span>
        </li>
      ))}
    </ul>
  );
}
