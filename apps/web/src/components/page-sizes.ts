/** Page sizes offered under every paged table. Kept apart from the table footer so route search schemas can use it without pulling in Mantine. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
