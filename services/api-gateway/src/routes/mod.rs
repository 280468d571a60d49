pub mod answers;
pub mod dashboard;
pub mod docs;
pub mod spa;
pub mod uptime;
