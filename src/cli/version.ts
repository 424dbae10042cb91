export { VERSION } from '../util/version.js';
