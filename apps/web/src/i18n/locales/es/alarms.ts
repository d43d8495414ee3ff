import type { Shape } from '../shape';
import type { alarms as en } from '../en/alarms';

export const alarms: Shape<typeof en> = {
  kind: {
    fault: 'Fallo del dispositivo',
    dayBurning: 'Encendida de día',
    darkLamp: 'Apagada cuando debía estar encendida',
  },
  state: {
    active: 'Activa',
    acknowledged: 'Reconocida',
    cleared: 'Resuelta',
  },
  view: {
    label: 'Qué alarmas',
    open: 'Alarmas abiertas',
    history: 'Historial',
  },
  summary: {
    active: 'Activas: {{count}}',
    acknowledged: 'Reconocidas: {{count}}',
  },
  fields: {
    raisedAt: 'Activada',
    device: 'Farola',
    region: 'Región',
    alarm: 'Alarma',
    kind: 'Tipo de alarma',
    code: 'Código de fallo',
    state: 'Estado',
    handled: 'Gestión',
    from: 'Activada desde',
    to: 'Activada hasta',
  },
  filters: {
    all: 'Todas',
    keywordPlaceholder: 'Nombre o ID de cliente de la farola',
  },
  actions: {
    acknowledge: 'Reconocer',
    clear: 'Resolver',
    acknowledgeSelected: 'Reconocer seleccionadas ({{count}})',
    clearSelected: 'Resolver seleccionadas ({{count}})',
    selectPage: 'Seleccionar las alarmas abiertas de esta página',
    history: 'Historial de alarmas de esta farola',
    showAll: 'Mostrar todas las farolas',
  },
  confirm: {
    acknowledgeTitle: 'Reconocer alarmas',
    acknowledgeText_one: '¿Reconocer {{count}} alarma? Sigue abierta hasta que el dispositivo o usted la resuelva.',
    acknowledgeText_other: '¿Reconocer {{count}} alarmas? Siguen abiertas hasta que el dispositivo o usted las resuelvan.',
    clearTitle: 'Resolver alarmas',
    clearText_one: '¿Resolver {{count}} alarma? Si el dispositivo sigue notificando el fallo, se abrirá una nueva alarma la próxima vez.',
    clearText_other: '¿Resolver {{count}} alarmas? Si el dispositivo sigue notificando el fallo, se abrirá una nueva alarma la próxima vez.',
  },
  feedback: {
    acknowledged: 'Alarmas reconocidas: {{count}}',
    cleared: 'Alarmas resueltas: {{count}}',
  },
  handled: {
    acknowledged: 'Reconocida por {{who}} el {{time}}',
    clearedBy: 'Resuelta por {{who}} el {{time}}',
    clearedByDevice: 'Resuelta por el dispositivo el {{time}}',
  },
  deviceFilter: 'Historial de alarmas de {{name}}',
};
