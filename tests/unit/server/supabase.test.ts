import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAdminClient, createUserClient, projectUrl } from '~/server/supabase.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createAdminClient', () => {
  it('makes one client per project URL and key, reused across requests', () => {
    const a = createAdminClient('http://127.0.0.1:54321', 'service-a');
    expect(createAdminClient('http://127.0.0.1:54321', 'service-a')).toBe(a);
    expect(createAdminClient('http://127.0.0.1:54321', 'service-b')).not.toBe(a);
    expect(createAdminClient('http://127.0.0.1:54322', 'service-a')).not.toBe(a);
  });

  it('calls the project with the service role key and keeps no session', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const client = createAdminClient('http://127.0.0.1:54399', 'service-key');
    await client.from('products').select('id');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://127.0.0.1:54399/rest/v1/products?select=id');
    expect(new Headers(init?.headers).get('apikey')).toBe('service-key');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer service-key');
    expect((await client.auth.getSession()).data.session).toBeNull();
  });
});

describe('projectUrl', () => {
  it('is the configured project without trailing slashes, else the local stack', async () => {
    const { LOCAL_SUPABASE_URL } = await import('~/domain/local-stack.ts');
    expect(projectUrl('https://abc.supabase.co//')).toBe('https://abc.supabase.co');
    expect(projectUrl(undefined)).toBe(LOCAL_SUPABASE_URL.replace(/\/+$/, ''));
    expect(projectUrl('')).toBe(LOCAL_SUPABASE_URL.replace(/\/+$/, ''));
  });
});

describe('createUserClient', () => {
  it('acts as the user whose token it is given, with the anonymous key, and as anyone without one', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockImplementation(async () => new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    await createUserClient('http://127.0.0.1:54398', 'anon-key', 'token-de-la-admin').from('orders').select('id');
    await createUserClient('http://127.0.0.1:54398', 'anon-key').from('products').select('id');
    const [asUser, asAnyone] = fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers));
    expect(asUser!.get('apikey')).toBe('anon-key');
    expect(asUser!.get('authorization')).toBe('Bearer token-de-la-admin');
    expect(asAnyone!.get('authorization')).toBe('Bearer anon-key');
  });
});
