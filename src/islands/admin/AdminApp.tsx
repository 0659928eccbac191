import { useEffect, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $session, initSession } from '~/stores/session.ts';
import CatalogSection from './CatalogSection.tsx';
import DemandSection from './DemandSection.tsx';
import DropsSection from './DropsSection.tsx';
import NewsletterSection from './NewsletterSection.tsx';
import OrdersSection from './OrdersSection.tsx';
import InvoicesSection from './InvoicesSection.tsx';
import PreordersSection from './PreordersSection.tsx';
import PurchasesSection from './PurchasesSection.tsx';
import BuylistSection from './BuylistSection.tsx';
import PromotionsSection from './PromotionsSection.tsx';
import ProductsSection from './ProductsSection.tsx';
import SummarySection from './SummarySection.tsx';
import '../account/account.css';
import './admin.css';
import { Loading } from '../ui/AsyncState.tsx';
import { ADMIN_APP_TEXT } from '~/i18n/admin.ts';
import { ADMIN_DEMAND_TEXT } from '~/i18n/alerts.ts';
import { DROP_SCHEDULE_TEXT } from '~/i18n/drops.ts';
import { ADMIN_INVOICES_TEXT } from '~/i18n/invoices.ts';
import { ADMIN_PREORDERS_TEXT } from '~/i18n/preorders.ts';
import { ADMIN_PURCHASES_TEXT } from '~/i18n/buylist.ts';
import { ADMIN_BUYLIST_TEXT } from '~/i18n/buylist-editor.ts';
import { ADMIN_PROMOTIONS_TEXT } from '~/i18n/promotions.ts';

/** The sections of the back office, in the side navigation's order. */
export const ADMIN_SECTIONS = [
  { id: 'summary', label: ADMIN_APP_TEXT.summary, href: '/admin' },
  { id: 'orders', label: ADMIN_APP_TEXT.orders, href: '/admin/pedidos' },
  { id: 'products', label: ADMIN_APP_TEXT.products, href: '/admin/productos' },
  { id: 'drops', label: DROP_SCHEDULE_TEXT.title, href: '/admin/lanzamientos' },
  { id: 'preorders', label: ADMIN_PREORDERS_TEXT.title, href: '/admin/preventas' },
  { id: 'promotions', label: ADMIN_PROMOTIONS_TEXT.title, href: '/admin/promociones' },
  { id: 'invoices', label: ADMIN_INVOICES_TEXT.title, href: '/admin/facturas' },
  { id: 'purchases', label: ADMIN_PURCHASES_TEXT.title, href: '/admin/compras' },
  { id: 'buylist', label: ADMIN_BUYLIST_TEXT.title, href: '/admin/lista-de-compra' },
  { id: 'demand', label: ADMIN_DEMAND_TEXT.nav, href: '/admin/demanda' },
  { id: 'newsletter', label: ADMIN_APP_TEXT.newsletter, href: '/admin/boletin' },
  { id: 'catalog', label: ADMIN_APP_TEXT.catalog, href: '/admin/catalogo' },
] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number]['id'];

/** The back office: admins only; a visitor without a session goes to the login and comes back. */
export default function AdminApp({ section }: { section: AdminSection }) {
  const session = useStore($session);
  useEffect(() => initSession(), []);

  const signedOut = !session.loading && !session.user;
  useEffect(() => {
    if (!signedOut) return;
    const here = `${window.location.pathname}${window.location.search}`;
    window.location.replace(`/auth?next=${encodeURIComponent(here)}`);
  }, [signedOut]);

  if (session.loading || signedOut) {
    return <Loading text={signedOut ? ADMIN_APP_TEXT.redirecting : ADMIN_APP_TEXT.loading} />;
  }
  if (!session.profile?.isAdmin) {
    return (
      <div className="acct-auth card">
        <h1 className="acct-auth-title">{ADMIN_APP_TEXT.forbiddenTitle}</h1>
        <p>{ADMIN_APP_TEXT.forbiddenBody}</p>
        <a className="btn btn-primary" href="/account">
          {ADMIN_APP_TEXT.backToAccount}
        </a>
      </div>
    );
  }

  let body: ReactNode;
  if (section === 'summary') body = <SummarySection />;
  else if (section === 'orders') body = <OrdersSection />;
  else if (section === 'products') body = <ProductsSection />;
  else if (section === 'drops') body = <DropsSection />;
  else if (section === 'preorders') body = <PreordersSection />;
  else if (section === 'promotions') body = <PromotionsSection />;
  else if (section === 'invoices') body = <InvoicesSection />;
  else if (section === 'purchases') body = <PurchasesSection />;
  else if (section === 'buylist') body = <BuylistSection />;
  else if (section === 'demand') body = <DemandSection />;
  else if (section === 'newsletter') body = <NewsletterSection />;
  else body = <CatalogSection />;

  return (
    <div className="adm-layout">
      <nav className="adm-nav card" aria-label={ADMIN_APP_TEXT.navLabel}>
        <p className="adm-nav-title">{ADMIN_APP_TEXT.navTitle}</p>
        <ul>
          {ADMIN_SECTIONS.map((item) => (
            <li key={item.id}>
              <a href={item.href} aria-current={item.id === section ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="adm-main card">{body}</div>
    </div>
  );
}
