// One collection run of the workspace with its errors, or undefined. The run's tasks read it
// the same way for the run webhooks' payload, so the loader lives beside the view it builds.
export { loadRunView as getRun } from '../../collection/run-view.js'
