pub mod answers;
pub mod docs;
pub mod spa;
pub mod uptime;
