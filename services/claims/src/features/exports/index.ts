export { exportBuilderHandle } from './export-builder';
export { closeClaimantExports, removeClaimantExportArchives } from './export-erasure';
export { exportsRoutes } from './exports-routes';
export { EXPORTS_AREA, exportStorage } from './export-storage';
