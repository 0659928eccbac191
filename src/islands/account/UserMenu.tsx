/**
 * The header's user menu, beside the 'Mi cuenta' link: a small toggle that opens, for a signed-in
 * user, their e-mail, 'Panel de administración' (admins only) and 'Cerrar sesión'; for a visitor,
 * 'Iniciar sesión'. The header loads it with client:interaction, so no page loads its code (or
 * supabase-js) until the visitor reaches for it; the session is read from then on.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { signOut } from '~/stores/auth.ts';
import { $session, initSession } from '~/stores/session.ts';
import { ACCOUNT_USER_MENU_TEXT } from '~/i18n/account.ts';
import { useMounted } from '../prebuilt.ts';
import './UserMenu.css';

export default function UserMenu() {
  const [open, setOpen] = useState(false);
  const mounted = useMounted();
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => initSession(), []);

  // An open menu closes on a click elsewhere and on Escape (focus back on the toggle).
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="um" ref={rootRef}>
      <button
        ref={toggleRef}
        type="button"
        className="icon-btn um-toggle"
        aria-label={ACCOUNT_USER_MENU_TEXT.toggle}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((v) => !v)}
      >
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>
      <div id={`${id}-panel`} className="um-panel" hidden={!open}>
        {/* The session is the browser's: shown only after hydration, so the server HTML always matches. */}
        {mounted && open && <MenuItems onDone={() => setOpen(false)} />}
      </div>
    </div>
  );
}

/** What the open menu lists for the session as it stands. */
function MenuItems({ onDone }: { onDone: () => void }) {
  const session = useStore($session);
  if (session.loading) return <p role="status">{ACCOUNT_USER_MENU_TEXT.loading}</p>;
  if (!session.user) {
    return (
      <ul className="um-list">
        <li>
          <a href="/auth">{ACCOUNT_USER_MENU_TEXT.signIn}</a>
        </li>
      </ul>
    );
  }
  return (
    <>
      <p className="um-who">{session.user.email}</p>
      <ul className="um-list">
        {session.profile?.isAdmin && (
          <li>
            <a href="/admin">{ACCOUNT_USER_MENU_TEXT.adminPanel}</a>
          </li>
        )}
        <li>
          <button
            type="button"
            onClick={() => {
              onDone();
              void signOut();
            }}
          >
            {ACCOUNT_USER_MENU_TEXT.signOut}
          </button>
        </li>
      </ul>
    </>
  );
}
