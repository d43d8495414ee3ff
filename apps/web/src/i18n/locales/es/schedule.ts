import type { schedule as en } from '../en/schedule';

/** Programaciones: días de la semana y franjas. */
export const schedule: typeof en = {
  weekday: { 1: 'Lun', 2: 'Mar', 3: 'Mié', 4: 'Jue', 5: 'Vie', 6: 'Sáb', 7: 'Dom' },
  everyDay: 'Todos los días',
  weekdaysHint: 'Sin selección equivale a los siete días',
  start: 'Inicio',
  end: 'Fin',
  addPeriod: 'Añadir franja',
  removePeriod: 'Quitar franja',
};
