import { useStore } from '@nanostores/react';
import { storeCreditSummary } from '~/domain/store-credit.ts';
import { STORE_CREDIT_MESSAGES } from '~/i18n/orders.ts';
import { $storeCredit, movementLine, reloadStoreCredit, type StoreCreditMovement } from '~/stores/store-credit.ts';
import { ACCOUNT_STORE_CREDIT_TEXT } from '~/i18n/account.ts';
import { AsyncState } from '../ui/AsyncState.tsx';

/**
 * The balance line of the profile summary: 'Saldo a favor: $350.00' ($0.00 included), from the
 * same read as the movements below it.
 */
export function StoreCreditSummary() {
  const state = useStore($storeCredit);
  return (
    <AsyncState
      state={state}
      loading={<p role="status">{ACCOUNT_STORE_CREDIT_TEXT.loading}</p>}
      fallback={<p className="muted">{ACCOUNT_STORE_CREDIT_TEXT.unavailable}</p>}
    >
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
      <h3 id="acct-credit-title">{ACCOUNT_STORE_CREDIT_TEXT.title}</h3>
      <p className="muted">{STORE_CREDIT_MESSAGES.howReturned}</p>
      <AsyncState
        state={state}
        loading={<p role="status">{ACCOUNT_STORE_CREDIT_TEXT.loadingMovements}</p>}
        failed={ACCOUNT_STORE_CREDIT_TEXT.loadFailed}
        onRetry={() => void reloadStoreCredit(userId)}
      >
        {(credit) => <MovementList movements={credit.movements} />}
      </AsyncState>
    </section>
  );
}

function MovementList({ movements }: { movements: StoreCreditMovement[] }) {
  if (movements.length === 0) return <p>{ACCOUNT_STORE_CREDIT_TEXT.empty}</p>;
  return (
    <ul className="acct-credit-list" aria-labelledby="acct-credit-title">
      {movements.map(movementLine).map((line) => (
        <li key={line.id} className="acct-credit-item" data-testid="store-credit-movement">
          <span className="acct-credit-what">
            <span className="acct-credit-label">{line.label}</span>
            {line.order && <span className="muted">{ACCOUNT_STORE_CREDIT_TEXT.order(line.order)}</span>}
          </span>
          <span className={`acct-credit-amount acct-credit-${line.direction}`}>{line.amount}</span>
          <time className="muted" dateTime={line.dateTime}>
            {line.date}
          </time>
          <span className="muted acct-credit-after">{ACCOUNT_STORE_CREDIT_TEXT.balanceAfter(line.balanceAfter)}</span>
        </li>
      ))}
    </ul>
  );
}
