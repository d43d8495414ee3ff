import { Group, Text } from '@mantine/core';
import { Pagination } from './pagination';
import { Select } from '@/components/select';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from './page-sizes';

/** Total, page size and pages under a paged table (pages are 1-based, as the API's pageNum). */
export function TableFooter({
  total,
  pageNum,
  pageSize,
  onChange,
}: {
  total: number;
  pageNum: number;
  pageSize: number;
  onChange: (page: { pageNum: number; pageSize: number }) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" data-testid="table-total">
        {t('common:feedback.total', { total })}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Select
          size="xs"
          w={90}
          data={PAGE_SIZES.map((size) => ({ value: String(size), label: `${size}` }))}
          value={String(pageSize)}
          allowDeselect={false}
          onChange={(value) => value && onChange({ pageNum: 1, pageSize: Number(value) })}
          aria-label={t('fields:pageSize')}
        />
        <Pagination
          size="sm"
          total={Math.max(1, Math.ceil(total / pageSize))}
          value={pageNum}
          onChange={(page) => onChange({ pageNum: page, pageSize })}
        />
      </Group>
    </Group>
  );
}
