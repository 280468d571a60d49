pub mod spa;
pub mod uptime;
