import { ACCOUNT_TABS_TEXT } from '~/i18n/account.ts';
import { ACCOUNT_SALES_TEXT } from '~/i18n/buylist.ts';

/** The tabs of the account page, and where the last one opened is remembered. */
export const ACCOUNT_TABS = [
  { id: 'profile', label: ACCOUNT_TABS_TEXT.profile },
  { id: 'favorites', label: ACCOUNT_TABS_TEXT.favorites },
  { id: 'orders', label: ACCOUNT_TABS_TEXT.orders },
  { id: 'sales', label: ACCOUNT_SALES_TEXT.tab },
  { id: 'addresses', label: ACCOUNT_TABS_TEXT.addresses },
  { id: 'settings', label: ACCOUNT_TABS_TEXT.settings },
] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number]['id'];

/** localStorage key of the last tab opened. */
export const ACCOUNT_TAB_KEY = 'accountTab';

/**
 * The tab to open: the one the address asks for (`/account?tab=favorites`, the header's heart),
 * else the one opened last in this browser ('profile' when none or unreadable).
 */
export function storedTab(search = typeof location === 'undefined' ? '' : location.search): AccountTab {
  const asked = new URLSearchParams(search).get('tab');
  if (ACCOUNT_TABS.some((tab) => tab.id === asked)) return asked as AccountTab;
  try {
    const value = localStorage.getItem(ACCOUNT_TAB_KEY);
    return ACCOUNT_TABS.some((tab) => tab.id === value) ? (value as AccountTab) : 'profile';
  } catch {
    return 'profile';
  }
}

/** Remembers the tab opened. */
export function rememberTab(tab: AccountTab): void {
  try {
    localStorage.setItem(ACCOUNT_TAB_KEY, tab);
  } catch {
    // Without storage the tab is simply not remembered.
  }
}
