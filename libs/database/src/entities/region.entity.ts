import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'region' })
export class RegionEntity {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'region_name', type: 'varchar', length: 64 })
  regionName!: string;

  @Column({ name: 'parent_id', type: 'int', nullable: true })
  parentId!: number | null;

  @ManyToOne(() => RegionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_id' })
  parent?: RegionEntity;

  @Column({ type: 'varchar', length: 255, default: '' })
  remark!: string;

  @Column({ name: 'zh_cn', type: 'varchar', length: 64, default: '' })
  zhCn!: string;

  @Column({ name: 'en_us', type: 'varchar', length: 64, default: '' })
  enUs!: string;

  @Column({ type: 'int', default: 0 })
  sort!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
