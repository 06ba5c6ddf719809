"""core/flow"""
