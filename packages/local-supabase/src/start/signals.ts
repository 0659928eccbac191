/** The command line's shutdown on SIGINT/SIGTERM: the first stops the stack, a second one exits at once. */
export function stopOnSignals(stack: { stop(): Promise<void> }): void {
  let signals = 0;
  const shutdown = (signal: string) => {
    signals++;
    if (signals > 1) {
      console.error('[local-supabase] salida forzada');
      process.exit(1);
    }
    console.log(`[local-supabase] ${signal}: cerrando…`);
    stack.stop().then(
      () => {
        console.log('[local-supabase] cerrado');
        process.exit(0);
      },
      (err: unknown) => {
        console.error('[local-supabase] error al cerrar', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
