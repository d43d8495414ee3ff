import type { broadcastPlaylists as en } from '../en/broadcastPlaylists';

/** Listas de reproducción (/broadcastManage/playList), sus modos de reproducción y la lista ordenada de materiales de los formularios. */
export const broadcastPlaylists: typeof en = {
  add: 'Añadir lista',
  edit: 'Editar lista',
  deleteDetail: '¿Eliminar la lista de reproducción "{{name}}"?',
  name: 'Nombre de la lista',
  playbackMode: 'Modo de reproducción',
  modes: {
    normal_mode: 'Normal',
    list_cycle_mode: 'Lista en bucle',
    random_mode: 'Aleatorio',
  },
  items: 'Materiales',
  itemCount_one: '{{count}} material',
  itemCount_other: '{{count}} materiales',
  totalDuration: 'Duración total',
  updatedBy: 'Modificada por',
  updatedAt: 'Modificada el',
  addMedia: 'Añadir un material',
  addMediaPlaceholder: 'Buscar entre los materiales aprobados',
  noMedia: 'Ningún material aprobado coincide',
  moveUp: 'Subir',
  moveDown: 'Bajar',
  remove: 'Quitar',
  order: 'N.º',
  noItems: 'Aún no hay materiales: añada materiales aprobados desde la lista de arriba',
  materialName: 'Nombre del material',
  duration: 'Duración',
};
