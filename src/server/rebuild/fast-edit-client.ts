/**
 * The builder's side of the running server's edits (fast-edit.ts): reads the code key of the
 * server bundle and posts the changed ids to the server's own POST /api/internal/catalog-edit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SERVER_CODE_KEY_FILE, type FastEditor } from './builder.ts';
import type { FastEditResult } from './fast-edit.ts';
import { API_FAST_EDIT_OPERATOR_TEXT } from '~/i18n/api.ts';

const Result = z.union([
  z.object({
    mode: z.literal('fast'),
    written: z.array(z.string()),
    removed: z.array(z.string()),
    ms: z.number(),
    steps: z.record(z.string(), z.number()),
    searchFollows: z.boolean(),
  }),
  z.object({ mode: z.literal('fallback'), reason: z.string() }),
]);

/** What the server's editor needs: its output folder, its own address once listening, the key. */
export interface ServerEditorOptions {
  outDir: string;
  /** This server's address (null until it listens). */
  origin: () => string | null;
  serviceRoleKey: string;
  /** Longest wait for an edit (default 120 s). */
  timeoutMs?: number;
}

/** The running server as the builder's FastEditor, or undefined when its bundle's code key is unknown. */
export function serverFastEditor(options: ServerEditorOptions): FastEditor | undefined {
  let codeKey: string;
  try {
    codeKey = fs.readFileSync(path.join(options.outDir, SERVER_CODE_KEY_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (!codeKey) return undefined;
  return {
    codeKey,
    publish: (productIds) => post(productIds),
    async warm(): Promise<void> {
      await post([]);
    },
    async adopt(): Promise<void> {
      // Read again when nothing was kept to adopt.
      await post([], true);
    },
  };

  async function post(productIds: string[], adopt = false): Promise<FastEditResult> {
    const origin = options.origin();
    if (!origin) throw new Error(API_FAST_EDIT_OPERATOR_TEXT.notListening);
    const response = await fetch(`${origin}/api/internal/catalog-edit`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(adopt ? { productIds, adopt } : { productIds }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
    });
    const body = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
    return Result.parse(body);
  }
}
