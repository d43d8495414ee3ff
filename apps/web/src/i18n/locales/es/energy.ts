import type { Shape } from '../shape';
import type { energy as en } from '../en/energy';

export const energy: Shape<typeof en> = {
  period: {
    label: 'Periodo',
    day: 'Día',
    month: 'Mes',
  },
  fields: {
    day: 'Día',
    month: 'Mes',
    energy: 'Energía consumida',
    full: 'A plena potencia',
    saving: 'Ahorro',
    litHours: 'Horas de encendido',
    lamps: 'Farolas',
    lamp: 'Farola',
    region: 'Región',
    ratedPower: 'Potencia nominal',
    savingShare: 'Ahorro (%)',
  },
  charts: {
    byHour: 'Energía por hora',
    byDay: 'Energía por día',
    byRegion: 'Energía y ahorro por región',
    timeZone: 'Zona horaria: {{zone}}',
  },
  lamps: {
    title: 'Farolas, de mayor a menor consumo',
  },
  selectedRegion: 'Se muestra {{region}} y sus subregiones.',
  allRegions: 'Mostrar todas las regiones',
  toggleRegion: 'Mostrar u ocultar las subregiones',
  unassigned: 'Farolas sin región',
  ratedPower: {
    edit: 'Editar la potencia nominal',
    title: 'Potencia nominal de {{name}}',
    hint: 'Vatios a pleno brillo: la energía a plena potencia y el ahorro se calculan con ella, también para días pasados.',
  },
};
