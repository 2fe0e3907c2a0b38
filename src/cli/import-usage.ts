// The import command's line of `npm run erp`'s usage, apart from the command itself (which loads the
// file readers): the usage is printed without loading them.
export const IMPORT_USAGE = `import <resource> <file> [--url URL] [--token T] [--parent ID] [--rows N] [--bytes N] [--dry-run] [--skip]
                                            import a CSV, JSON lines or .xlsx file into a resource (support/uoms)
                                            through a running service's POST <path>/import, in parts of at most
                                            --rows rows (default 1000, or IMPORT_MAX_ROWS if less) and --bytes bytes
                                            (default IMPORT_MAX_BYTES, 10 MiB); CSV and JSON lines are streamed in
                                            flat memory, a .xlsx is read whole. The token from --token or ERP_TOKEN,
                                            --parent for a nested resource's parent id; prints the report`;
