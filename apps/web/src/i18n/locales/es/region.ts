import type { Shape } from '../shape';
import type { region as en } from '../en/region';

export const region: Shape<typeof en> = {
  addTop: 'Nueva región',
  addChild: 'Nueva subregión',
  edit: 'Editar región',
  delete: 'Eliminar región',
  createTitle: 'Nueva región',
  createChildTitle: 'Nueva subregión',
  editTitle: 'Editar región',
  filterPlaceholder: 'Filtrar por nombre de región',
  expandAll: 'Expandir todo',
  collapseAll: 'Contraer todo',
  expand: 'Expandir',
  collapse: 'Contraer',
  count_one: '{{count}} región',
  count_other: '{{count}} regiones',
  topLevelCount_one: '{{count}} de primer nivel',
  topLevelCount_other: '{{count}} de primer nivel',
  childCount_one: '{{count}} subregión',
  childCount_other: '{{count}} subregiones',
  columns: {
    region: 'Región',
    id: 'ID',
  },
  form: {
    parentHint: 'Déjelo vacío para crear una región de primer nivel',
    topLevel: 'Región de primer nivel',
    namesTitle: 'Nombres por idioma',
    namesHint: 'Se muestran en las interfaces en chino y en inglés; si se dejan vacíos, se muestra el nombre de la región.',
    regionNamePlaceholder: 'p. ej., Distrito de Nanshan',
    zhCnPlaceholder: 'p. ej., 南山区',
    enUsPlaceholder: 'p. ej., Nanshan District',
    remarkPlaceholder: 'Notas opcionales para los operadores',
  },
  deleteDetail: 'Se eliminará la región «{{name}}». No se puede eliminar una región que aún tenga subregiones o dispositivos.',
  empty: {
    title: 'Todavía no hay regiones',
    description: 'Cree primero una región de primer nivel, como una ciudad, y después añada sus distritos y calles.',
  },
  noMatch: {
    title: 'Ninguna región coincide',
    description: 'Ningún nombre de región contiene «{{query}}».',
  },
  loadFailed: {
    title: 'No se pudo cargar el árbol de regiones',
    description: 'Compruebe la conexión de red e inténtelo de nuevo.',
    retry: 'Reintentar',
  },
  cascader: {
    clear: 'Borrar',
    nothingFound: 'Ninguna región coincide',
    previousLevels: 'Mostrar niveles superiores',
    nextLevels: 'Mostrar niveles inferiores',
  },
};
