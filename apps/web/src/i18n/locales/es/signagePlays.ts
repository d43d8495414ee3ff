/** Prueba de emisión de las pantallas de pie (/floor-screen/plays). */
export const signagePlays = {
  startDate: 'Fecha de inicio',
  endDate: 'Fecha de fin',
  region: 'Región',
  group: 'Grupo',
  device: 'Dispositivo',
  ad: 'Anuncio',
  day: 'Día',
  all: 'Todos',
  plays: 'Reproducciones',
  seconds: 'Segundos reproducidos',
  by: { ad: 'Por anuncio', device: 'Por dispositivo', day: 'Por día', detail: 'Por anuncio, dispositivo y día' },
  totals: '{{plays}} reproducciones, {{seconds}} segundos reproducidos',
  deletedAd: 'Anuncio eliminado #{{id}}',
};
