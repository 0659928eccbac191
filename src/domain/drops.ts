/**
 * Timed drops: a product on sale from a set instant (`on_sale_at`; null: on sale now). The
 * instant is shown and typed in Mexico City time whatever the browser's time zone, and counted
 * down against the shop's clock (the browser's clock plus the offset measured from the server),
 * so a browser with a wrong clock still shows the right countdown. The database refuses early
 * orders anyway (supabase/migrations/20261129001100_on_sale_at.sql).
 */

/** The shop's time zone: every drop time is shown and typed in it. */
const SHOP_TIME_ZONE = 'America/Mexico_City';

/** The drop's instant in ms since the epoch; null when the product has no drop time (or it does not parse). */
export function dropInstant(onSaleAt: string | null | undefined): number | null {
  if (!onSaleAt) return null;
  const ms = Date.parse(onSaleAt);
  return Number.isNaN(ms) ? null : ms;
}

/** Whether the product is still held at `nowMs`: it has a drop time and that instant has not come. */
export function isDropLocked(onSaleAt: string | null | undefined, nowMs: number): boolean {
  const at = dropInstant(onSaleAt);
  return at !== null && at > nowMs;
}

/** The parts a drop's time is said with: 'viernes', '11', 'diciembre', '10:00' (es-MX, Mexico City time). */
interface DropTimeParts {
  weekday: string;
  day: string;
  month: string;
  time: string;
}

const PARTS_FORMAT = /* @__PURE__ */ new Intl.DateTimeFormat('es-MX', {
  timeZone: SHOP_TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The weekday, day, month and 24-hour time of an instant in Mexico City. */
export function dropTimeParts(ms: number): DropTimeParts {
  const parts = Object.fromEntries(PARTS_FORMAT.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return {
    weekday: parts.weekday ?? '',
    day: parts.day ?? '',
    month: parts.month ?? '',
    time: `${(parts.hour ?? '00').padStart(2, '0')}:${(parts.minute ?? '00').padStart(2, '0')}`,
  };
}

/** What is left of a countdown, in whole days, hours, minutes and seconds (never negative). */
interface Countdown {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Splits the milliseconds left into days, hours, minutes and seconds, rounding up to the next second. */
export function countdownParts(msLeft: number): Countdown {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

const LOCAL_FORMAT = /* @__PURE__ */ new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant as Mexico City's wall clock, 'YYYY-MM-DDTHH:mm' (a datetime-local field's value). */
export function toShopLocal(ms: number): string {
  const p = Object.fromEntries(LOCAL_FORMAT.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

const LOCAL_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A Mexico City wall-clock time 'YYYY-MM-DDTHH:mm' as an instant (ms); null when it is no real
 * date and time. The zone's offset is the one it has at that time (Mexico City keeps UTC−6 all
 * year since 2022; older dates had summer time).
 */
export function fromShopLocal(value: string): number | null {
  const match = LOCAL_VALUE.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  if (new Date(wall).getUTCDate() !== d) return null;
  // Two passes: the offset at the first guess, then at the instant it gives.
  let guess = wall;
  for (let i = 0; i < 2; i += 1) {
    const shown = fromLocalParts(toShopLocal(guess));
    guess += wall - shown;
  }
  return toShopLocal(guess) === value.trim() ? guess : null;
}

function fromLocalParts(local: string): number {
  const [, y, mo, d, h, mi] = (LOCAL_VALUE.exec(local) ?? []).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi);
}

/**
 * How far the shop's clock is ahead of the browser's (ms), from one request: the server's time
 * `serverMs`, read between `sentAt` and `receivedAt` of the browser's clock (taken as the middle).
 */
export function clockOffset(serverMs: number, sentAt: number, receivedAt: number): number {
  return Math.round(serverMs - (sentAt + receivedAt) / 2);
}

/** A card's drop when it is still ahead at `nowMs`: its instant (ISO) and how it is said; null otherwise. */
export function cardDrop(onSaleAt: string | null | undefined, nowMs: number): { at: string; when: DropTimeParts } | null {
  const at = dropInstant(onSaleAt);
  if (at === null || at <= nowMs) return null;
  return { at: new Date(at).toISOString(), when: dropTimeParts(at) };
}
