import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { getProfile } from '../../data/profiles.ts';
import { $session, initSession, refresh, setProfile, signOut } from '../../stores/session.ts';
import AuthForm from '../auth/AuthForm.tsx';
import Toaster from './Toaster.tsx';
import ProfilePanel from './ProfilePanel.tsx';
import OrdersPanel from './OrdersPanel.tsx';
import AddressesPanel from './AddressesPanel.tsx';
import { useLiveRows } from './useLive.ts';
import './account.css';

const ProductForm = lazy(() => import('../admin/ProductForm.tsx'));

export const ACCOUNT_TABS = [
  { id: 'profile', label: 'Mi perfil' },
  { id: 'favorites', label: 'Favoritos' },
  { id: 'orders', label: 'Pedidos' },
  { id: 'addresses', label: 'Direcciones' },
  { id: 'settings', label: 'Configuración' },
] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number]['id'];

/** localStorage key of the last tab opened. */
export const ACCOUNT_TAB_KEY = 'accountTab';

function storedTab(): AccountTab {
  try {
    const value = localStorage.getItem(ACCOUNT_TAB_KEY);
    return ACCOUNT_TABS.some((tab) => tab.id === value) ? (value as AccountTab) : 'profile';
  } catch {
    return 'profile';
  }
}

interface Props {
  /** /account/addproduct: a switch between the account and the product form. */
  withProductForm?: boolean;
}

/** The account page and its notices. */
export default function AccountApp(props: Props) {
  return (
    <>
      <AccountScreen {...props} />
      <Toaster />
    </>
  );
}

function AccountScreen({ withProductForm = false }: Props) {
  const session = useStore($session);
  const [tab, setTab] = useState<AccountTab>('profile');
  const [showForm, setShowForm] = useState(withProductForm);

  useEffect(() => {
    setTab(storedTab());
    initSession();
  }, []);

  const userId = session.user?.id ?? null;
  const reloadProfile = useCallback(async () => {
    if (!userId) return;
    const result = await getProfile(userId);
    if (result.data) setProfile(result.data);
  }, [userId]);
  useLiveRows('profiles', userId, () => void reloadProfile());

  function openTab(next: AccountTab) {
    setTab(next);
    try {
      localStorage.setItem(ACCOUNT_TAB_KEY, next);
    } catch {
      // Without storage the tab is simply not remembered.
    }
  }

  if (session.loading) {
    return (
      <div className="acct-loading" role="status" data-testid="account-loading">
        <span className="acct-spinner" aria-hidden="true" />
        <span>Cargando tu cuenta…</span>
      </div>
    );
  }

  if (session.error?.kind === 'failed') {
    return (
      <div className="acct-auth card" role="alert">
        <p className="acct-error">{session.error.message}</p>
        <button type="button" className="btn btn-primary" onClick={() => void refresh()}>
          Reintentar
        </button>
      </div>
    );
  }

  if (session.error?.kind === 'unavailable') {
    return (
      <div className="acct-auth card">
        <p className="acct-error" role="alert">
          {session.error.message}
        </p>
        <a className="btn btn-primary" href="/auth?next=/account">
          Iniciar sesión
        </a>
      </div>
    );
  }

  if (!session.user || !session.profile) return <AuthForm />;

  const { user, profile } = session;
  const panelId = `acct-panel-${tab}`;

  return (
    <div className="acct-layout">
      <aside className="acct-sidebar card" aria-label="Tu cuenta">
        <h2>
          {profile.name?.trim() || 'Sin nombre'} {profile.lastname?.trim() || 'Sin apellido'}
        </h2>
        <p className="acct-email">{user.email}</p>
        {withProductForm && (
          <button type="button" className="btn btn-outline" aria-pressed={showForm} onClick={() => setShowForm((v) => !v)}>
            {showForm ? 'Ver mi cuenta' : 'Registrar producto'}
          </button>
        )}
        <div className="acct-tabs" role="tablist" aria-label="Secciones de la cuenta" aria-orientation="vertical">
          {ACCOUNT_TABS.map((item) => (
            <button
              key={item.id}
              type="button"
              role="tab"
              id={`acct-tab-${item.id}`}
              aria-selected={!showForm && tab === item.id}
              aria-controls={`acct-panel-${item.id}`}
              tabIndex={tab === item.id ? 0 : -1}
              onClick={() => {
                setShowForm(false);
                openTab(item.id);
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
        {profile.isAdmin && !withProductForm && (
          <a className="btn btn-accent" href="/admin/add">
            Registrar producto
          </a>
        )}
        {profile.isAdmin && (
          <a className="btn btn-primary" href="/admin">
            Administrar tienda
          </a>
        )}
        <button type="button" className="btn btn-outline" onClick={() => void signOut()}>
          Cerrar sesión
        </button>
      </aside>
      {showForm ? (
        <section className="acct-panel card" aria-label="Registrar producto">
          <Suspense fallback={<p role="status">Cargando formulario…</p>}>
            <ProductForm embedded />
          </Suspense>
        </section>
      ) : (
        <section className="acct-panel card" role="tabpanel" id={panelId} aria-labelledby={`acct-tab-${tab}`}>
          {tab === 'profile' && <ProfilePanel user={user} profile={profile} onOpenTab={openTab} />}
          {tab === 'favorites' && (
            <>
              <h2>Favoritos</h2>
              <p>Pronto podrás ver y gestionar tus favoritos aquí.</p>
            </>
          )}
          {tab === 'orders' && <OrdersPanel userId={user.id} />}
          {tab === 'addresses' && <AddressesPanel userId={user.id} />}
          {tab === 'settings' && (
            <>
              <h2>Configuración</h2>
              <p>Esta sección está en construcción. Muy pronto podrás ajustar tus preferencias aquí.</p>
            </>
          )}
        </section>
      )}
    </div>
  );
}
