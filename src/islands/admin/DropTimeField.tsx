/** 'A la venta desde': a drop's date and time in Mexico City time, whatever the admin's own time zone. */
import { dropInstant, toShopLocal } from '~/domain/drops.ts';
import { DROP_ADMIN_FIELD_TEXT as TEXT } from '~/i18n/drops.ts';
import { Field } from '../ui/Field.tsx';

/** The field's value for a stored `on_sale_at`: Mexico City's wall clock, '' when there is none. */
export function shopLocalOf(onSaleAt: string | null): string {
  const ms = dropInstant(onSaleAt);
  return ms === null ? '' : toShopLocal(ms);
}

/** A datetime-local field read as Mexico City time, with its hint; empty means on sale now. */
export function DropTimeField({ id, value, onChange, error }: { id: string; value: string; onChange: (value: string) => void; error?: string | undefined }) {
  const hintId = `${id}-hint`;
  return (
    <Field id={id} label={TEXT.onSaleAt} error={error}>
      <input
        id={id}
        className="input"
        type="datetime-local"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={error ? `${hintId} ${id}-error` : hintId}
        aria-invalid={error ? true : undefined}
      />
      <p className="muted" id={hintId}>
        {TEXT.hint}
      </p>
    </Field>
  );
}
