/** 'Anteriores' / 'Página n de m' / 'Siguientes' under a paged list. */
interface Props {
  /** The navigation's name, e.g. 'Páginas de pedidos'. */
  label: string;
  /** The page text, e.g. 'Página 2 de 5'. */
  text: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  className: string;
  /** Announce the page text when it changes. */
  live?: boolean;
}

/** The pager of the account's orders and the back office's lists. */
export function Pager({ label, text, hasPrevious, hasNext, onPrevious, onNext, className, live = false }: Props) {
  return (
    <nav className={className} aria-label={label}>
      <button type="button" className="btn btn-outline" disabled={!hasPrevious} onClick={onPrevious}>
        Anteriores
      </button>
      <span aria-live={live ? 'polite' : undefined}>{text}</span>
      <button type="button" className="btn btn-outline" disabled={!hasNext} onClick={onNext}>
        Siguientes
      </button>
    </nav>
  );
}
