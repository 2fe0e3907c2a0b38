// exceljs is loaded by the first spreadsheet read or written, not at boot: about 29 MB resident
// that a process serving no spreadsheet never needs.
export async function loadExcel(): Promise<typeof import('exceljs')> {
  return (await import('exceljs')).default;
}
