import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { submitForm, useForm, type FormSinks } from '~/islands/ui/use-form.ts';

/** Sinks that record every write, in order. */
function recorder() {
  const writes: string[] = [];
  const state = { errors: {} as Record<string, string>, formError: '', busy: false };
  const sinks: FormSinks = {
    setErrors: (errors) => {
      state.errors = errors;
      writes.push(`errors:${JSON.stringify(errors)}`);
    },
    setFormError: (message) => {
      state.formError = message;
      writes.push(`formError:${message}`);
    },
    setBusy: (busy) => {
      state.busy = busy;
      writes.push(`busy:${busy}`);
    },
  };
  return { writes, state, sinks };
}

const refused = { ok: false as const, fieldErrors: { price: 'Escribe un precio válido.' }, formError: 'Revisa los campos marcados.' };

describe('submitForm, the submit of every account and back-office form', () => {
  it('shows the field errors and the form error of a refused form and sends nothing', async () => {
    const { state, sinks } = recorder();
    let sent = 0;
    const result = await submitForm({ current: false }, { validate: () => refused, send: () => void sent++ }, sinks);
    expect(result).toBe('invalid');
    expect(sent).toBe(0);
    expect(state.errors).toEqual({ price: 'Escribe un precio válido.' });
    expect(state.formError).toBe('Revisa los campos marcados.');
    expect(state.busy).toBe(false);
  });

  it('clears the errors, is busy while sending, and sends the validated values', async () => {
    const { writes, state, sinks } = recorder();
    let busyDuringSend = false;
    const result = await submitForm(
      { current: false },
      {
        validate: () => ({ ok: true, data: { price: 10 } }),
        send: async (data) => {
          busyDuringSend = state.busy;
          expect(data).toEqual({ price: 10 });
        },
      },
      sinks,
    );
    expect(result).toBe('sent');
    expect(busyDuringSend).toBe(true);
    expect(writes).toEqual(['errors:{}', 'formError:', 'busy:true', 'busy:false']);
  });

  it('ignores a second submit while the first is being sent (a double click)', async () => {
    const { sinks } = recorder();
    const guard = { current: false };
    let sent = 0;
    let finish: () => void = () => undefined;
    const spec = { send: () => new Promise<void>((resolve) => ((sent += 1), (finish = resolve))) };
    const first = submitForm(guard, spec, sinks);
    const second = await submitForm(guard, spec, sinks);
    expect(second).toBe('busy');
    expect(sent).toBe(1);
    finish();
    expect(await first).toBe('sent');
    // Once the first settled, the form can be sent again.
    const third = submitForm(guard, spec, sinks);
    finish();
    expect(await third).toBe('sent');
    expect(sent).toBe(2);
  });

  it('shows what the send refused: a message, or a message with field errors', async () => {
    const a = recorder();
    await submitForm({ current: false }, { send: () => 'No se pudo guardar.' }, a.sinks);
    expect(a.state.formError).toBe('No se pudo guardar.');
    expect(a.state.busy).toBe(false);

    const b = recorder();
    await submitForm(
      { current: false },
      { send: async () => ({ formError: 'Ese username ya existe.', fieldErrors: { username: 'Ese username ya existe.' } }) },
      b.sinks,
    );
    expect(b.state.errors).toEqual({ username: 'Ese username ya existe.' });
    expect(b.state.formError).toBe('Ese username ya existe.');
  });

  it('is no longer busy after a send that throws', async () => {
    const { state, sinks } = recorder();
    const guard = { current: false };
    await expect(
      submitForm(
        guard,
        {
          send: async () => {
            throw new Error('red caída');
          },
        },
        sinks,
      ),
    ).rejects.toThrow('red caída');
    expect(state.busy).toBe(false);
    expect(guard.current).toBe(false);
  });
});

describe('useForm', () => {
  it('starts with no errors and not busy', () => {
    let seen: ReturnType<typeof useForm> | undefined;
    function Probe() {
      seen = useForm({ send: () => undefined });
      return null;
    }
    renderToString(createElement(Probe));
    expect(seen?.errors).toEqual({});
    expect(seen?.formError).toBe('');
    expect(seen?.busy).toBe(false);
  });
});
