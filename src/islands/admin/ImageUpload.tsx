/**
 * 'Agregar imagen' / 'Agregar foto': a file input that checks the file with the shop's upload rule
 * (src/domain/image-upload.ts), uploads it to the products bucket, has the server make its copies
 * (src/data/media-variants.ts) and hands back its stored path.
 */
import { useState } from 'react';
import { IMAGE_UPLOAD_ACCEPT, IMAGE_UPLOAD_MESSAGE, isUploadableImage } from '~/domain/image-upload.ts';
import { Field } from '../ui/Field.tsx';
import { ADMIN_PRODUCT_EDIT_TEXT } from '~/i18n/admin.ts';
import { uploadImage } from './product-edit.ts';
import { makeImageVariants } from '~/data/media-variants.ts';

interface Props {
  id: string;
  label: string;
  /** The product the image belongs to (its stored name starts with the product's id). */
  productId: string;
  onUploaded: (path: string) => void;
  /** Told when an upload starts and ends. */
  onUploading?: (uploading: boolean) => void;
  /** An error about the images from the form's validation, shown when the upload has none of its own. */
  error?: string | undefined;
  disabled?: boolean;
  /** Said while a file uploads. */
  uploadingNote?: string;
}

/** A labelled image input that uploads what is chosen. */
export function ImageUpload({ id, label, productId, onUploaded, onUploading, error, disabled = false, uploadingNote }: Props) {
  const [uploadError, setUploadError] = useState('');
  const [uploading, setUploading] = useState(false);

  async function add(file: File | undefined) {
    if (!file) return;
    if (!isUploadableImage(file)) {
      setUploadError(IMAGE_UPLOAD_MESSAGE);
      return;
    }
    setUploading(true);
    onUploading?.(true);
    const uploaded = await uploadImage(productId, file);
    // The server makes the photo's copies (widths and formats) and names the original with its size; a refusal removes the upload.
    const made = uploaded ? await makeImageVariants(uploaded) : null;
    setUploading(false);
    onUploading?.(false);
    if (!made?.path) {
      setUploadError(made?.error ?? ADMIN_PRODUCT_EDIT_TEXT.uploadFailed);
      return;
    }
    setUploadError('');
    onUploaded(made.path);
  }

  return (
    <>
      <Field id={id} label={label} error={uploadError || error}>
        <input
          id={id}
          className="input"
          type="file"
          accept={IMAGE_UPLOAD_ACCEPT}
          disabled={disabled || uploading}
          onChange={(e) => {
            void add(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </Field>
      {uploading && uploadingNote && <p role="status">{uploadingNote}</p>}
    </>
  );
}
