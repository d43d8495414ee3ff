import type { Shape } from '../shape';
import type { imports as en } from '../en/imports';

export const imports: Shape<typeof en> = {
  button: 'Importar datos',
  export: 'Exportar',
  title: {
    light: 'Importar farolas',
    gateway: 'Importar pasarelas',
    loop: 'Importar circuitos',
    lamp: 'Importar postes',
    terminal: 'Importar terminales de difusión',
  },
  file: 'Archivo',
  filePlaceholder: 'Elija un archivo xlsx o xls',
  fileHint:
    'xlsx o xls, 5 MB como máximo (un xls, 5000 filas como máximo: guarde una lista más larga como xlsx). Se lee la primera hoja; su primera fila nombra las columnas, como en la plantilla.',
  group: 'Grupo de dispositivos',
  groupPlaceholder: 'Seleccione un grupo',
  noGroups: 'Aún no hay grupos para estos dispositivos',
  template: 'Descargar plantilla',
  preview: 'Vista previa',
  previewHint: 'Comprueba cada fila y muestra qué cambiaría, sin escribir nada',
  import: 'Importar',
  previewSummary_one: 'Vista previa de {{count}} fila: aún no se ha escrito nada',
  previewSummary_other: 'Vista previa de {{count}} filas: aún no se ha escrito nada',
  doneSummary_one: '{{count}} fila importada',
  doneSummary_other: '{{count}} filas importadas',
  added: 'Añadidos',
  changed: 'Modificados',
  unchanged: 'Sin cambios',
  codes: 'Códigos',
  errorsMore_one: 'Se muestran los primeros {{shown}} de {{count}} problemas; el informe los tiene todos',
  errorsMore_other: 'Se muestran los primeros {{shown}} de {{count}} problemas; el informe los tiene todos',
  downloadReport: 'Descargar informe de errores',
  downloadCredentials: 'Descargar accesos MQTT',
  credentialsHint:
    'Los accesos MQTT de los dispositivos añadidos se pueden descargar una sola vez, durante una hora: entréguelos a los instaladores.',
  row: 'Fila',
  column: 'Columna',
  value: 'Valor',
  reason: 'Motivo',
  imported: 'Importación terminada: {{added}} añadidos, {{changed}} modificados, {{unchanged}} sin cambios',
};
