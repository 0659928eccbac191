/** Badge classes of the order status colours. */
import type { StatusColor } from '~/domain/orders.ts';

export const BADGE: Record<StatusColor, string> = {
  green: 'badge-success',
  yellow: 'badge-warning',
  red: 'badge-danger',
  blue: 'badge-info',
};
