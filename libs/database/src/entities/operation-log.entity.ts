import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { OperationStatus } from '@sc/contracts';

@Entity({ name: 'operation_log' })
export class OperationLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 128 })
  description!: string;

  @Column({ name: 'method_name', type: 'varchar', length: 128 })
  methodName!: string;

  @Column({ name: 'request_params', type: 'jsonb', nullable: true })
  requestParams!: unknown;

  @Column({ type: 'varchar', length: 64 })
  operator!: string;

  @Column({ name: 'operator_id', type: 'int', nullable: true })
  operatorId!: number | null;

  @Column({ name: 'operation_ip', type: 'varchar', length: 64 })
  operationIp!: string;

  @Column({ name: 'operation_time', type: 'timestamptz', default: () => 'now()' })
  operationTime!: Date;

  @Column({ type: 'varchar', length: 16 })
  status!: OperationStatus;

  @Column({ name: 'error_message', type: 'varchar', length: 512, nullable: true })
  errorMessage!: string | null;

  @Column({ name: 'duration_ms', type: 'int', default: 0 })
  durationMs!: number;
}
