import { lazy, Suspense, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { User } from '@supabase/supabase-js';
import { $session, initSession, refresh, reloadProfile, type SessionProfile } from '~/stores/session.ts';
import { signOut } from '~/stores/auth.ts';
import { applyFavoriteIntent } from '~/stores/favorites.ts';
import { ACCOUNT_APP_TEXT } from '~/i18n/account.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import AuthForm from '../auth/AuthForm.tsx';
import Toaster from '../ui/Toaster.tsx';
import ProfilePanel from './ProfilePanel.tsx';
import OrdersPanel from './OrdersPanel.tsx';
import AddressesPanel from './AddressesPanel.tsx';
import FavoritesPanel from './FavoritesPanel.tsx';
import SettingsPanel from './SettingsPanel.tsx';
import SalesPanel from './SalesPanel.tsx';
import TaxDataSection from './TaxDataSection.tsx';
import { useLiveRows } from './useLive.ts';
import { ACCOUNT_TABS, rememberTab, storedTab, type AccountTab } from './tabs.ts';
import './account.css';

const ProductForm = lazy(() => import('../admin/ProductForm.tsx'));

interface Props {
  /** /account/addproduct: a switch between the account and the product form. */
  withProductForm?: boolean;
}

/** The account page and its notices. */
export default function AccountApp(props: Props) {
  return (
    <>
      <AccountScreen {...props} />
      <Toaster look="account" />
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
  useLiveRows('profiles', session.user?.id ?? null, () => void reloadProfile());
  // A heart tapped before signing in (with Google, or before confirming the e-mail) is saved here.
  const userId = session.user?.id ?? null;
  useEffect(() => {
    if (userId) void applyFavoriteIntent(userId);
  }, [userId]);

  function openTab(next: AccountTab) {
    setTab(next);
    rememberTab(next);
  }

  if (session.loading) {
    return (
      <div className="acct-loading" role="status" data-testid="account-loading">
        <span className="acct-spinner" aria-hidden="true" />
        <span>{ACCOUNT_APP_TEXT.loading}</span>
      </div>
    );
  }

  if (session.error?.kind === 'failed') {
    return (
      <div className="acct-auth card" role="alert">
        <p className="acct-error">{session.error.message}</p>
        <button type="button" className="btn btn-primary" onClick={() => void refresh()}>
          {COMMON_TEXT.retry}
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
          {ACCOUNT_APP_TEXT.signIn}
        </a>
      </div>
    );
  }

  if (!session.user || !session.profile) return <AuthForm />;

  const { user, profile } = session;
  return (
    <div className="acct-layout">
      <Sidebar
        user={user}
        profile={profile}
        tab={tab}
        showForm={showForm}
        withProductForm={withProductForm}
        onToggleForm={() => setShowForm((v) => !v)}
        onOpenTab={(next) => {
          setShowForm(false);
          openTab(next);
        }}
      />
      {showForm ? (
        <section className="acct-panel card" aria-label={ACCOUNT_APP_TEXT.productForm}>
          <Suspense fallback={<p role="status">{ACCOUNT_APP_TEXT.loadingForm}</p>}>
            <ProductForm embedded />
          </Suspense>
        </section>
      ) : (
        <section className="acct-panel card" role="tabpanel" id={`acct-panel-${tab}`} aria-labelledby={`acct-tab-${tab}`}>
          {tab === 'profile' && (
            <>
              <ProfilePanel user={user} profile={profile} onOpenTab={openTab} />
              <TaxDataSection userId={user.id} accountEmail={user.email ?? ''} />
            </>
          )}
          {tab === 'favorites' && <FavoritesPanel userId={user.id} />}
          {tab === 'orders' && <OrdersPanel userId={user.id} />}
          {tab === 'sales' && <SalesPanel userId={user.id} />}
          {tab === 'addresses' && <AddressesPanel userId={user.id} />}
          {tab === 'settings' && <SettingsPanel userId={user.id} />}
        </section>
      )}
    </div>
  );
}

interface SidebarProps {
  user: User;
  profile: SessionProfile;
  tab: AccountTab;
  showForm: boolean;
  withProductForm: boolean;
  onToggleForm: () => void;
  onOpenTab: (tab: AccountTab) => void;
}

/** The name, the tabs, the admin links and 'Cerrar sesión'. */
function Sidebar({ user, profile, tab, showForm, withProductForm, onToggleForm, onOpenTab }: SidebarProps) {
  return (
    <aside className="acct-sidebar card" aria-label={ACCOUNT_APP_TEXT.sidebarLabel}>
      <h2>
        {profile.name?.trim() || ACCOUNT_APP_TEXT.noName} {profile.lastname?.trim() || ACCOUNT_APP_TEXT.noLastname}
      </h2>
      <p className="acct-email">{user.email}</p>
      {withProductForm && (
        <button type="button" className="btn btn-outline" aria-pressed={showForm} onClick={onToggleForm}>
          {showForm ? ACCOUNT_APP_TEXT.backToAccount : ACCOUNT_APP_TEXT.productForm}
        </button>
      )}
      <div className="acct-tabs" role="tablist" aria-label={ACCOUNT_APP_TEXT.tabsLabel} aria-orientation="vertical">
        {ACCOUNT_TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`acct-tab-${item.id}`}
            aria-selected={!showForm && tab === item.id}
            aria-controls={`acct-panel-${item.id}`}
            tabIndex={tab === item.id ? 0 : -1}
            onClick={() => onOpenTab(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {profile.isAdmin && !withProductForm && (
        <a className="btn btn-accent" href="/admin/add">
          {ACCOUNT_APP_TEXT.productForm}
        </a>
      )}
      {profile.isAdmin && (
        <a className="btn btn-primary" href="/admin">
          {ACCOUNT_APP_TEXT.adminPanel}
        </a>
      )}
      <button type="button" className="btn btn-outline" onClick={() => void signOut()}>
        {ACCOUNT_APP_TEXT.signOut}
      </button>
    </aside>
  );
}
