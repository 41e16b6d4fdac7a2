import { startDashboard } from './appShell.js'

/** Entry of public/admin/app.js (bundled by scripts/build-browser.ts). */
const root = document.getElementById('app')
if (root) startDashboard(root)
