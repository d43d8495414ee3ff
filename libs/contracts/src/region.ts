export const REGION_NAME_MAX = 64;
export const REGION_REMARK_MAX = 255;

/** Area tree node: the label is zhCn in Chinese, enUs in English, falling back to name. */
export interface AreaTreeNode {
  id: number;
  name: string;
  zhCn: string;
  enUs: string;
  remark: string;
  parentId: number | null;
  childList: AreaTreeNode[];
}

export interface RegionRequest {
  id?: number;
  regionName: string;
  /** Parent region id; null or absent for a top-level region. */
  parentRegion?: number | null;
  remark?: string;
  zhCn?: string;
  enUs?: string;
}
