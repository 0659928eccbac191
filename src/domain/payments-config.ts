/**
 * What the checkout page tells the browser about the payment providers (no secrets): the server
 * works it out from its environment (src/server/context.ts) and the payment step renders by it.
 */
export interface PaymentsPublicConfig {
  mode: 'live' | 'simulated';
  card: 'stripe' | 'simulated' | 'unavailable';
  paypal: 'paypal' | 'simulated' | 'unavailable';
  stripePublishableKey: string | null;
  paypalClientId: string | null;
  testMode: boolean;
}
