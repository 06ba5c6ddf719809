"""titles/g1849"""
