//! How `wmeter seed` loads a synthetic network into this service's tables,
//! in bulk and without the event log (`COPY` on PostgreSQL): for
//! benchmarks at scale, into an empty database.

use wm_proto::Payload;
use wm_storage::{StorageError, Tx};

use crate::storage::directory;

/// New registrations (`GatewayRegistered`, `MeterRegistered`): the names
/// notifications show.
pub async fn registrations(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    directory::load(tx, events).await
}
