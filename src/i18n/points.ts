/** Reward points spent as saldo a favor: the account's 'Canjear puntos' and the back office's rate. */

/** 'Canjear puntos' in the profile panel (src/islands/account/PointsRedeem.tsx). */
export const POINTS_REDEEM_TEXT = {
  title: 'Canjear puntos',
  intro: 'Cambia tus puntos de recompensa por saldo a favor para tus próximas compras.',
  loading: 'Cargando la equivalencia de tus puntos…',
  unavailable: 'El canje de puntos no está disponible por ahora.',
  /** 'Tienes 1,250 puntos.' */
  balance: (points: string) => `Tienes ${points} puntos.`,
  /** '100 puntos = $10.00' */
  rate: (points: string, value: string) => `${points} puntos = ${value}`,
  /** 'Mínimo para canjear: 100 puntos, en bloques de 100.' */
  rules: (minimum: string, block: string) => `Mínimo para canjear: ${minimum} puntos, en bloques de ${block}.`,
  field: 'Puntos a canjear',
  /** 'Recibirás $10.00 de saldo a favor.' */
  youGet: (value: string) => `Recibirás ${value} de saldo a favor.`,
  submit: 'Canjear puntos',
  sending: 'Canjeando…',
  /** 'Te faltan 40 puntos para tu primer canje (mínimo 100).' */
  notEnough: (missing: string, minimum: string) => `Te faltan ${missing} puntos para tu primer canje (mínimo ${minimum}).`,
  /** 'Canjeaste 100 puntos por $10.00 de saldo a favor. Te quedan 150 puntos.' */
  done: (points: string, value: string, left: string) => `Canjeaste ${points} puntos por ${value} de saldo a favor. Te quedan ${left} puntos.`,
  /** redeem_points' refusals (details not_whole_blocks, below_minimum, insufficient_points). */
  notWholeBlocks: (block: string) => `Canjea tus puntos en bloques de ${block}.`,
  belowMinimum: (minimum: string) => `El mínimo para canjear es de ${minimum} puntos.`,
  insufficient: 'No tienes suficientes puntos.',
  failed: 'No pudimos canjear tus puntos. Inténtalo de nuevo.',
} as const;

/** The rate in the back office (src/islands/admin/PointsRateSettings.tsx). */
export const ADMIN_POINTS_RATE_TEXT = {
  title: 'Canje de puntos',
  intro: 'Cuánto saldo a favor vale cada bloque de puntos de recompensa. Un cambio aplica a los canjes siguientes.',
  loading: 'Cargando la equivalencia…',
  loadFailed: 'No se pudo cargar la equivalencia de puntos.',
  /** 'Hoy: 100 puntos = $10.00, mínimo 100 puntos.' */
  current: (points: string, value: string, minimum: string) => `Hoy: ${points} puntos = ${value}, mínimo ${minimum} puntos.`,
  /** 'Último cambio: 29 de noviembre de 2026, 10:15' */
  lastChange: (when: string) => `Último cambio: ${when}`,
  pointsPerBlock: 'Puntos por bloque',
  blockValue: 'Saldo a favor por bloque (MXN)',
  minPoints: 'Mínimo de puntos por canje',
  save: 'Guardar equivalencia',
  saving: 'Guardando…',
  saved: 'Equivalencia guardada.',
  invalidPoints: 'Escribe un número entero de puntos, de 1 a 1,000,000.',
  invalidValue: 'Escribe un monto mayor que $0.00 y de hasta $100,000.00, con hasta dos decimales.',
  invalidMinimum: 'El mínimo debe ser de bloques completos: un múltiplo de los puntos por bloque, al menos uno.',
  forbidden: 'Solo un administrador puede cambiar la equivalencia.',
  saveFailed: 'No se pudo guardar la equivalencia. Inténtalo de nuevo.',
} as const;
