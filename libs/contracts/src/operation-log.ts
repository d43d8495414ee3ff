import type { PageQuery } from './envelope';

export enum OperationStatus {
  Success = 'success',
  Failure = 'failure',
}

export interface OperationLogRow {
  id: number;
  description: string;
  methodName: string;
  requestParams: unknown;
  operator: string;
  operationIp: string;
  operationTime: string;
  status: OperationStatus;
  errorMessage: string | null;
  durationMs: number;
}

export interface OperationLogQuery extends PageQuery {
  operator?: string;
  status?: OperationStatus;
  startTime?: string;
  endTime?: string;
  description?: string;
}
