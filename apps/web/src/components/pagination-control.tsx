// Mantine's Pagination in a chunk of its own, for components/pagination.tsx.
export { Pagination as PaginationControl } from '@mantine/core';
