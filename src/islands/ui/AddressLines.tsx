/** An address written the way a courier reads it, one line each (src/domain/address-copy.ts). */
import { addressLines, type AddressParts } from '~/domain/address-copy.ts';

interface Props {
  address: AddressParts;
  /** Who receives, when known. */
  name?: string | null;
  className?: string;
  testId?: string;
  /** A span (inside a label or a line of text) instead of a paragraph. */
  inline?: boolean;
}

/** The address's lines in one paragraph (or span). */
export function AddressLines({ address, name, className, testId, inline = false }: Props) {
  const lines = addressLines(address, { name });
  const Tag = inline ? 'span' : 'p';
  return (
    <Tag className={className} data-testid={testId}>
      {lines.map((line, index) => (
        <span key={index} className="address-line">
          {line}
          {index < lines.length - 1 && <br />}
        </span>
      ))}
    </Tag>
  );
}
