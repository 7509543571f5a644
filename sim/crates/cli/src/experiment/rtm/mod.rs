//! The RTM's figures (`kind = "rtm"`).

pub mod figures;
