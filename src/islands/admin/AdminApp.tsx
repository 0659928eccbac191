import { useEffect, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $session, initSession } from '~/stores/session.ts';
import CatalogSection from './CatalogSection.tsx';
import NewsletterSection from './NewsletterSection.tsx';
import OrdersSection from './OrdersSection.tsx';
import ProductsSection from './ProductsSection.tsx';
import SummarySection from './SummarySection.tsx';
import '../account/account.css';
import './admin.css';
import { Loading } from '../ui/AsyncState.tsx';

/** The sections of the back office, in the side navigation's order. */
export const ADMIN_SECTIONS = [
  { id: 'summary', label: 'Resumen', href: '/admin' },
  { id: 'orders', label: 'Pedidos', href: '/admin/pedidos' },
  { id: 'products', label: 'Productos', href: '/admin/productos' },
  { id: 'newsletter', label: 'Boletín', href: '/admin/boletin' },
  { id: 'catalog', label: 'Catálogo', href: '/admin/catalogo' },
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
    return <Loading text={signedOut ? 'Redirigiendo al inicio de sesión…' : 'Cargando…'} />;
  }
  if (!session.profile?.isAdmin) {
    return (
      <div className="acct-auth card">
        <h1 className="acct-auth-title">No tienes acceso</h1>
        <p>Solo los administradores de la tienda pueden entrar aquí.</p>
        <a className="btn btn-primary" href="/account">
          Volver a mi cuenta
        </a>
      </div>
    );
  }

  let body: ReactNode;
  if (section === 'summary') body = <SummarySection />;
  else if (section === 'orders') body = <OrdersSection />;
  else if (section === 'products') body = <ProductsSection />;
  else if (section === 'newsletter') body = <NewsletterSection />;
  else body = <CatalogSection />;

  return (
    <div className="adm-layout">
      <nav className="adm-nav card" aria-label="Administración">
        <p className="adm-nav-title">Administrar tienda</p>
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
