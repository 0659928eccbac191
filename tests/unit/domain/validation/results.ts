/** Reading a FormResult in the validation tests: the failure's messages, or the valid data. */
import type { FormResult } from '~/domain/validation';

export function errorsOf<T>(result: FormResult<T>): { fieldErrors: Record<string, string>; formError: string } {
  if (result.ok) throw new Error(`expected a validation failure, got ${JSON.stringify(result.data)}`);
  return { fieldErrors: result.fieldErrors, formError: result.formError };
}

export function dataOf<T>(result: FormResult<T>): T {
  if (!result.ok) throw new Error(`expected valid data, got ${JSON.stringify(result.fieldErrors)}`);
  return result.data;
}
