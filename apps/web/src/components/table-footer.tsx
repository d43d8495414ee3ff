import { Group, Text } from '@mantine/core';
import { Pagination } from './pagination';
import { Select } from '@/components/select';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from './page-sizes';

/** Total, page size and pages under a paged table (pages are 1-based, as the API's pageNum). */
export function TableFooter({
  total,
  totalCapped = false,
  pageNum,
  pageSize,
  onChange,
}: {
  total: number;
  /** The total is a lower bound (the server's count stopped there): "more than" it, and one page more to ask for. */
  totalCapped?: boolean;
  pageNum: number;
  pageSize: number;
  onChange: (page: { pageNum: number; pageSize: number }) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" data-testid="table-total">
        {t(totalCapped ? 'common:feedback.totalAtLeast' : 'common:feedback.total', { total })}
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
          total={Math.max(1, Math.ceil(total / pageSize) + (totalCapped ? 1 : 0))}
          value={pageNum}
          onChange={(page) => onChange({ pageNum: page, pageSize })}
        />
      </Group>
    </Group>
  );
}
