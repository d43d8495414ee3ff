import type { VideoGridSize } from '@sc/contracts';

/** The live wall: the camera in each cell (null: empty), the cell the operator chose, and the cell filled last. */
export interface WallState {
  cells: readonly (number | null)[];
  /** The cell a camera clicked next goes to (chosen by clicking it); null: the next empty one. */
  selected: number | null;
  /** The cell filled last: on a full wall with no cell chosen, the next camera takes the cell after it. */
  last: number;
}

/** An empty wall of `size` cells. */
export function emptyWall(size: VideoGridSize): WallState {
  return { cells: Array.from({ length: size }, () => null), selected: null, last: -1 };
}

/**
 * Puts a camera on the wall: in the chosen cell, else in the first empty one, else (a full wall) in the cell after
 * the one filled last, round the wall. A camera already on the wall is not shown twice: its cell becomes the chosen one.
 */
export function placeCamera(wall: WallState, id: number): WallState {
  const size = wall.cells.length;
  if (size === 0) return wall;
  const shown = wall.cells.indexOf(id);
  if (shown >= 0) return { ...wall, selected: shown };
  const empty = wall.cells.indexOf(null);
  const target = wall.selected !== null && wall.selected < size ? wall.selected : empty >= 0 ? empty : (wall.last + 1) % size;
  return { cells: wall.cells.map((cell, i) => (i === target ? id : cell)), selected: null, last: target };
}

/** Chooses a cell for the next camera; choosing it again lets go of it. */
export function selectCell(wall: WallState, index: number): WallState {
  if (index < 0 || index >= wall.cells.length) return wall;
  return { ...wall, selected: wall.selected === index ? null : index };
}

/** Empties a cell (its player stops). */
export function clearCell(wall: WallState, index: number): WallState {
  return { ...wall, cells: wall.cells.map((cell, i) => (i === index ? null : cell)) };
}

/**
 * The wall in another grid: a larger one keeps every cell where it is and adds empty ones; a smaller one keeps the
 * cameras shown, in their order, as many as it holds.
 */
export function resizeWall(wall: WallState, size: VideoGridSize): WallState {
  if (size >= wall.cells.length) {
    return { ...wall, cells: [...wall.cells, ...Array.from({ length: size - wall.cells.length }, () => null)] };
  }
  const kept = wall.cells.filter((cell): cell is number => cell !== null).slice(0, size);
  const cells = [...kept, ...Array.from({ length: size - kept.length }, () => null)];
  return { cells, selected: null, last: kept.length - 1 };
}

/** The cells' columns: 1, 2, 3 or 4 for 1, 4, 9 or 16 pictures. */
export const gridColumns = (size: VideoGridSize): number => Math.round(Math.sqrt(size));

/** Where the wall's grid size is remembered in this browser. */
export const GRID_SIZE_KEY = 'sc-video-grid';

/** The grid size remembered under GRID_SIZE_KEY (4 when none, or when it is not one of `sizes`). */
export function readGridSize(stored: string | null, sizes: readonly VideoGridSize[]): VideoGridSize {
  const value = Number(stored);
  return (sizes as readonly number[]).includes(value) ? (value as VideoGridSize) : 4;
}
