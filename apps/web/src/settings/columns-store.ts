import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface ColumnChoices {
  /** Per table, the columns the operator showed (true) or hid (false): only changes from the table's defaults. */
  tables: Record<string, Record<string, boolean>>;
  choose: (table: string, column: string, shown: boolean) => void;
  /** Forgets a table's choices: its defaults again. */
  reset: (table: string) => void;
}

/** The columns chosen in the tables' column choosers, kept in local storage across reloads. */
export const useColumnChoices = create<ColumnChoices>()(
  persist(
    (set) => ({
      tables: {},
      choose: (table, column, shown) => set((s) => ({ tables: { ...s.tables, [table]: { ...s.tables[table], [column]: shown } } })),
      reset: (table) =>
        set((s) => {
          const { [table]: _forgotten, ...others } = s.tables;
          return { tables: others };
        }),
    }),
    { name: 'sc-columns', version: 1, partialize: ({ tables }) => ({ tables }) },
  ),
);
