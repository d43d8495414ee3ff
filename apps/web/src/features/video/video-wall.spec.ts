import { VIDEO_GRID_SIZES } from '@sc/contracts';
import { clearCell, emptyWall, gridColumns, placeCamera, readGridSize, resizeWall, selectCell, type WallState } from './video-wall';

const wallOf = (cells: (number | null)[], selected: number | null = null, last = -1): WallState => ({ cells, selected, last });

describe('the live wall', () => {
  it('fills the empty cells in order while none is chosen', () => {
    let wall = emptyWall(4);
    for (const id of [11, 12, 13]) wall = placeCamera(wall, id);
    expect(wall.cells).toEqual([11, 12, 13, null]);
    // A cell emptied meanwhile is the next one filled.
    wall = placeCamera(clearCell(wall, 1), 14);
    expect(wall.cells).toEqual([11, 14, 13, null]);
  });

  it('puts a camera in the chosen cell, replacing what it showed, then lets the choice go', () => {
    const wall = placeCamera(selectCell(wallOf([11, 12, null, null]), 0), 20);
    expect(wall.cells).toEqual([20, 12, null, null]);
    expect(wall.selected).toBeNull();
    // The next camera goes to the next empty cell again.
    expect(placeCamera(wall, 21).cells).toEqual([20, 12, 21, null]);
  });

  it('on a full wall with no cell chosen, takes the cell after the one filled last, round the wall', () => {
    let wall = emptyWall(4);
    for (const id of [1, 2, 3, 4]) wall = placeCamera(wall, id);
    wall = placeCamera(wall, 5);
    expect(wall.cells).toEqual([5, 2, 3, 4]);
    wall = placeCamera(wall, 6);
    expect(wall.cells).toEqual([5, 6, 3, 4]);
    expect(placeCamera(wallOf([1, 2, 3, 4], null, 3), 9).cells).toEqual([9, 2, 3, 4]);
  });

  it('shows a camera once: picking one on the wall chooses its cell', () => {
    const wall = placeCamera(wallOf([11, 12, null, null]), 12);
    expect(wall.cells).toEqual([11, 12, null, null]);
    expect(wall.selected).toBe(1);
  });

  it('chooses a cell, and lets it go when chosen again', () => {
    const wall = selectCell(emptyWall(4), 2);
    expect(wall.selected).toBe(2);
    expect(selectCell(wall, 2).selected).toBeNull();
    expect(selectCell(wall, 7)).toBe(wall);
  });

  it('keeps the cells in a larger grid, and the cameras shown, in order, in a smaller one', () => {
    expect(resizeWall(wallOf([1, null, 3, null]), 9).cells).toEqual([1, null, 3, null, null, null, null, null, null]);
    const smaller = resizeWall(wallOf([null, 5, null, 7, null, 8, null, null, 9], 4), 4);
    expect(smaller).toEqual({ cells: [5, 7, 8, 9], selected: null, last: 3 });
    expect(resizeWall(wallOf([null, 5, null, 7, null, 8, null, null, 9]), 1).cells).toEqual([5]);
    expect(resizeWall(wallOf([null, null, null, null]), 1)).toEqual({ cells: [null], selected: null, last: -1 });
  });

  it('lays 1, 4, 9 and 16 pictures out in 1, 2, 3 and 4 columns', () => {
    expect(VIDEO_GRID_SIZES.map(gridColumns)).toEqual([1, 2, 3, 4]);
  });

  it('reads the remembered grid size, 4 when there is none or it is not one of the sizes', () => {
    expect(readGridSize('9', VIDEO_GRID_SIZES)).toBe(9);
    expect(readGridSize('1', VIDEO_GRID_SIZES)).toBe(1);
    expect(readGridSize(null, VIDEO_GRID_SIZES)).toBe(4);
    expect(readGridSize('6', VIDEO_GRID_SIZES)).toBe(4);
    expect(readGridSize('sixteen', VIDEO_GRID_SIZES)).toBe(4);
  });
});
