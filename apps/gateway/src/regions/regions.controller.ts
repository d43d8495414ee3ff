import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, type AreaTreeNode } from '@sc/contracts';
import { Audit, RequireButton } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import { AreaTreeQueryDto, CreateRegionDto, UpdateRegionDto } from './dto/region.dto';
import { RegionsService } from './regions.service';

/** Region tree (any signed-in user may read it) and its management (Add, Edit, Delete buttons). */
@ApiTags('regions')
@ApiBearerAuth()
@Controller('bi/area')
export class RegionsController {
  constructor(private readonly regions: RegionsService) {}

  @Get('queryAreaTree')
  tree(@Query() q: AreaTreeQueryDto): Promise<AreaTreeNode[]> {
    return this.regions.tree(q.name);
  }

  @Post('add')
  @HttpCode(200)
  @RequireButton(Button.Add)
  @Audit('Create region')
  create(@Body() dto: CreateRegionDto): Promise<{ id: number }> {
    return this.regions.create(dto);
  }

  @Post('edit')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Edit region')
  async update(@Body() dto: UpdateRegionDto): Promise<null> {
    await this.regions.update(dto);
    return null;
  }

  @Get('del')
  @RequireButton(Button.Delete)
  @Audit('Delete region')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.regions.remove(q.id);
    return null;
  }
}
