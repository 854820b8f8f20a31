/** What other modules use of the material library (contracts.md). */
export { type MaterialReferrer, materialsInUse, registerMaterialReferrer } from './references.js';
export { getMaterialsForRender, type RenderMaterial } from './render.js';
